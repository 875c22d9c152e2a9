## The Nim contestant of taskbench: async procs on std/asyncdispatch, Nim's standard event
## loop (one thread), with `sleepAsync`, a `FutureStream` for a channel and std/asyncnet's
## AsyncSocket. Each scenario of docs/PROTOCOL.md §4 is one proc in tasks.nim, requests.nim
## or sockets.nim; here each becomes one iteration, the event loop run until its future is
## done.

import std/[asyncdispatch, os, tables, times]
import protocol, requests, sockets, tasks

proc checksum(sum: Future[int]): Outcome =
  Outcome(checksum: waitFor sum)

proc runSpawn(p: Params): Outcome =
  checksum(spawnMany(p["tasks"]))

proc runSleep(p: Params): Outcome =
  checksum(sleepMany(p["tasks"], p["delay-ms"]))

proc runTimer(p: Params): Outcome =
  let step = p["step-us"]
  let slept = waitFor timer(step, p["total-ms"] * 1000 div step)
  oversleep(slept, initDuration(microseconds = step))

proc runDoxbee(p: Params): Outcome =
  checksum(doxbee(p["requests"], p["io-ms"]))

proc runParallel(p: Params): Outcome =
  checksum(parallel(p["requests"], p["fanout"], p["io-ms"]))

proc runSkynet(p: Params): Outcome =
  checksum(skynet(0, p["size"]))

proc runPingpong(p: Params): Outcome =
  checksum(pingpong(p["pairs"], p["rounds"]))

proc runChain(p: Params): Outcome =
  checksum(chain(p["length"]))

proc runYield(p: Params): Outcome =
  checksum(yieldMany(p["tasks"], p["yields"]))

proc runEcho(p: Params): Outcome =
  checksum(echoRounds(p["connections"], p["rounds"], p["bytes"]))

proc runConnections(p: Params): Outcome =
  checksum(holdConnections(p["connections"]))

let scenarios = {
  "spawn": Scenario(params: @["tasks"], run: runSpawn),
  "sleep": Scenario(params: @["tasks", "delay-ms"], run: runSleep),
  "timer": Scenario(params: @["step-us", "total-ms"], run: runTimer),
  "doxbee": Scenario(params: @["requests", "io-ms"], run: runDoxbee),
  "parallel": Scenario(params: @["requests", "fanout", "io-ms"],
      run: runParallel),
  "skynet": Scenario(params: @["size"], run: runSkynet),
  "pingpong": Scenario(params: @["pairs", "rounds"], run: runPingpong),
  "chain": Scenario(params: @["length"], run: runChain),
  "yield": Scenario(params: @["tasks", "yields"], run: runYield),
  "echo": Scenario(params: @["connections", "rounds", "bytes"], run: runEcho),
  "connections": Scenario(params: @["connections"], run: runConnections),
}.toTable

# Start the event loop before the first iteration, as its first use would: until the
# dispatcher exists, a completed future runs its callbacks at once instead of on the loop's
# next tick (asyncfutures' callSoon), which is not how asyncdispatch runs.
discard getGlobalDispatcher()

# Exit at once after the last line: tearing the runtime down is not part of the workload.
quit serve(scenarios, commandLineParams())
