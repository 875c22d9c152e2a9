# The Crystal contestant of taskbench: fibers (`spawn`), `sleep`, `Channel` and
# `Fiber.yield`, and TCPServer/TCPSocket for the socket scenarios, with Crystal's default
# build: every fiber on one thread (no -Dpreview_mt). Each scenario of docs/PROTOCOL.md §4
# is one method in tasks.cr, requests.cr or sockets.cr.

require "./protocol"
require "./tasks"
require "./requests"
require "./sockets"

# A scenario of these parameters (in catalogue order) whose iteration is the block.
def scenario(*params : String, &run : Protocol::Params -> Protocol::Outcome) : Protocol::Scenario
  Protocol::Scenario.new(params.to_a, run)
end

def checksum(sum : Int64) : Protocol::Outcome
  Protocol::Outcome.new(sum)
end

SCENARIOS = {
  "spawn" => scenario("tasks") { |p| checksum(Tasks.spawn_many(p["tasks"])) },
  "sleep" => scenario("tasks", "delay-ms") do |p|
    checksum(Tasks.sleep_many(p["tasks"], p["delay-ms"].milliseconds))
  end,
  "timer" => scenario("step-us", "total-ms") do |p|
    Tasks.timer(p["step-us"].microseconds, p["total-ms"] * 1000 // p["step-us"])
  end,
  "doxbee" => scenario("requests", "io-ms") do |p|
    checksum(Requests.doxbee(p["requests"], p["io-ms"].milliseconds))
  end,
  "parallel" => scenario("requests", "fanout", "io-ms") do |p|
    checksum(Requests.parallel(p["requests"], p["fanout"], p["io-ms"].milliseconds))
  end,
  "skynet"   => scenario("size") { |p| checksum(Tasks.skynet(p["size"])) },
  "pingpong" => scenario("pairs", "rounds") { |p| checksum(Tasks.pingpong(p["pairs"], p["rounds"])) },
  "chain"    => scenario("length") { |p| checksum(Tasks.chain(p["length"])) },
  "yield"    => scenario("tasks", "yields") { |p| checksum(Tasks.yield_many(p["tasks"], p["yields"])) },
  "echo"     => scenario("connections", "rounds", "bytes") do |p|
    checksum(Sockets.echo(p["connections"], p["rounds"], p["bytes"]))
  end,
  "connections" => scenario("connections") { |p| checksum(Sockets.connections(p["connections"])) },
}

# Exit at once after the last line: tearing the runtime down is not part of the workload.
exit Protocol.serve(SCENARIOS, ARGV)
