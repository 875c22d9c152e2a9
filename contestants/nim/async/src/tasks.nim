## The scenarios that are pure task work: spawn, sleep, timer, skynet, pingpong, chain and
## yield, on asyncdispatch, Nim's standard event loop: a task is an async proc's future,
## started by calling the proc (it runs until its first `await`) and joined with `all`;
## the timer is `sleepAsync`, the channel a `FutureStream` (std/asyncstreams).

import std/[asyncdispatch, asyncstreams, monotimes, times]

type Task* = proc (i: int): Future[int] {.closure, gcsafe.}
  ## The i-th task of a `spawnSum`: its future.

proc spawnSum*(n: int, task: Task): Future[int] {.async.} =
  ## Starts task(0) … task(n-1), joins them all and returns the sum of their results.
  var tasks = newSeqOfCap[Future[int]](n)
  for i in 0 ..< n:
    tasks.add task(i)
  var sum = 0
  for value in await all(tasks):
    sum += value
  return sum

proc spawnMany*(tasks: int): Future[int] =
  proc task(i: int): Future[int] {.async.} =
    return i
  spawnSum(tasks, task)

proc sleepMany*(tasks, delayMs: int): Future[int] =
  proc task(i: int): Future[int] {.async.} =
    await sleepAsync(delayMs)
    return i
  spawnSum(tasks, task)

proc timer*(stepUs, count: int): Future[seq[Duration]] {.async.} =
  ## Sleeps `stepUs` µs `count` times in sequence, timing every sleep (sleepAsync takes
  ## milliseconds, as a float for a fraction of one).
  var slept = newSeqOfCap[Duration](count)
  for _ in 1 .. count:
    let start = getMonoTime()
    await sleepAsync(stepUs.float / 1000)
    slept.add getMonoTime() - start
  return slept

proc skynet*(num, size: int): Future[int] {.async.} =
  ## A leaf returns its number; an inner node starts its ten children and returns the sum
  ## of their results, joined with `all` (asyncdispatch's way to wait for several).
  if size == 1:
    return num
  let part = size div 10
  proc child(k: int): Future[int] = skynet(num + k * part, part)
  return await spawnSum(10, child)

proc ponger(pings, pongs: FutureStream[int]) {.async.} =
  ## Returns every ball it reads until the stream of pings is complete.
  while true:
    let (more, ball) = await pings.read()
    if not more:
      break
    await pongs.write(ball)

proc pinger(rounds: int): Future[int] {.async.} =
  ## Starts its ponger and plays `rounds` round trips with it over two streams; returns the
  ## round trips made.
  let pings = newFutureStream[int]("ping")
  let pongs = newFutureStream[int]("pong")
  asyncCheck ponger(pings, pongs)
  var trips = 0
  for _ in 1 .. rounds:
    await pings.write(trips)
    discard await pongs.read()
    inc trips
  pings.complete()
  return trips

proc pingpong*(pairs, rounds: int): Future[int] =
  proc pair(i: int): Future[int] = pinger(rounds)
  spawnSum(pairs, pair)

proc link(n, length, sum: int, done: Future[int]) {.async.} =
  ## Link n adds n to the sum it was handed, starts link n+1 with the new sum and ends; the
  ## last link completes `done` with the sum.
  let sum = sum + n
  if n == length:
    done.complete(sum)
  else:
    asyncCheck link(n + 1, length, sum, done)

proc chain*(length: int): Future[int] =
  ## Starts link 1 with the sum 0; its future is the sum the last link completes it with.
  result = newFuture[int]("chain")
  asyncCheck link(1, length, 0, result)

proc yielder(yields: int): Future[int] {.async.} =
  ## Goes back to the event loop `yields` times; asyncdispatch has no yield of its own, so
  ## a zero sleep stands in: its timer is due at once and wakes the task on the next poll.
  var count = 0
  for _ in 1 .. yields:
    await sleepAsync(0)
    inc count
  return count

proc yieldMany*(tasks, yields: int): Future[int] =
  proc task(i: int): Future[int] = yielder(yields)
  spawnSum(tasks, task)
