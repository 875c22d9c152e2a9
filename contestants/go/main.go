// Command go-contestant is the Go contestant of taskbench: goroutines, time.Sleep,
// channels and runtime.Gosched, with the runtime's default configuration (GOMAXPROCS =
// cores), and Go's net for the socket scenarios. Each scenario of docs/PROTOCOL.md §4 is one
// function in tasks.go, requests.go or sockets.go.
package main

import (
	"fmt"
	"os"
	"runtime"
	"time"
)

// scenarios maps each scenario name to its parameters (catalogue order) and one iteration.
var scenarios = map[string]scenario{
	"spawn": {[]string{"tasks"}, func(p params) outcome {
		return checksum(spawn(p["tasks"]))
	}},
	"sleep": {[]string{"tasks", "delay-ms"}, func(p params) outcome {
		return checksum(sleep(p["tasks"], ms(p["delay-ms"])))
	}},
	"timer": {[]string{"step-us", "total-ms"}, func(p params) outcome {
		step := time.Duration(p["step-us"]) * time.Microsecond
		return timer(step, p["total-ms"]*1000/p["step-us"])
	}},
	"doxbee": {[]string{"requests", "io-ms"}, func(p params) outcome {
		return checksum(doxbee(p["requests"], ms(p["io-ms"])))
	}},
	"parallel": {[]string{"requests", "fanout", "io-ms"}, func(p params) outcome {
		return checksum(parallel(p["requests"], p["fanout"], ms(p["io-ms"])))
	}},
	"skynet": {[]string{"size"}, func(p params) outcome {
		return checksum(skynet(p["size"]))
	}},
	"pingpong": {[]string{"pairs", "rounds"}, func(p params) outcome {
		return checksum(pingpong(p["pairs"], p["rounds"]))
	}},
	"chain": {[]string{"length"}, func(p params) outcome {
		return checksum(chain(p["length"]))
	}},
	"yield": {[]string{"tasks", "yields"}, func(p params) outcome {
		return checksum(yield(p["tasks"], p["yields"]))
	}},
	"echo": {[]string{"connections", "rounds", "bytes"}, func(p params) outcome {
		return checksum(echo(p["connections"], p["rounds"], p["bytes"]))
	}},
	"connections": {[]string{"connections"}, func(p params) outcome {
		return checksum(connectionsHeld(p["connections"]))
	}},
}

func ms(n int) time.Duration {
	return time.Duration(n) * time.Millisecond
}

func main() {
	// `go-contestant version`: the release this binary was built with, as `go version`
	// says it, read back by taskbench from the binary it measures.
	if len(os.Args) == 2 && os.Args[1] == "version" {
		fmt.Println("go version", runtime.Version(), runtime.GOOS+"/"+runtime.GOARCH)
		return
	}
	// Exit at once after the line: tearing the runtime down is not part of the workload.
	os.Exit(serve(os.Args[1:]))
}
