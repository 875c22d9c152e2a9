// The contestant protocol of docs/PROTOCOL.md (version 2): read the command line, run the
// unmeasured warm-up iterations, then the M measured ones, each timed with the monotonic
// clock and the process's CPU time (getrusage, microseconds) and followed by its one line.

package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// warmupFlag sets the iterations run unmeasured before the measured ones, iterationsFlag
// how many are measured (at least 1); `--warmup-<param> V` gives a parameter another value
// in the warm-up iterations only.
const (
	warmupFlag      = "inner-warmup"
	iterationsFlag  = "iterations"
	warmupParamFlag = "warmup-"
)

// params holds the value of every parameter of a scenario by its command-line name.
type params map[string]int

// scenario is one workload: its parameters in catalogue order and one iteration of it.
type scenario struct {
	params []string
	run    func(params) outcome
}

// outcome is what one iteration produced: its checksum and scenario-specific figures.
type outcome struct {
	checksum int
	extra    []figure
}

// figure is one named number of the result line's "extra" object.
type figure struct {
	name  string
	value int64
}

func checksum(sum int) outcome {
	return outcome{checksum: sum}
}

// invocation is a command line understood: the scenario, its parameters in the measured
// iterations and in the warm-up ones (the same, but for the `--warmup-<param>` ones), and
// how many iterations of each to run.
type invocation struct {
	scenario   scenario
	values     params
	warmValues params
	warmup     int
	iterations int
}

// serve runs the invocation in args and returns the exit status: 0, or 2 when the command
// line is not understood.
func serve(args []string) int {
	inv, err := parse(args)
	if err != nil {
		fmt.Fprintf(os.Stderr, "go-contestant: %v\n", err)
		return 2
	}
	for i := 0; i < inv.warmup; i++ {
		inv.scenario.run(inv.warmValues)
	}
	for i := 0; i < inv.iterations; i++ {
		cpuStart := processCPU()
		start := time.Now()
		out := inv.scenario.run(inv.values)
		elapsed := time.Since(start)
		cpu := processCPU() - cpuStart
		// os.Stdout is unbuffered: the line is written before the next iteration starts.
		fmt.Println(resultLine(elapsed, cpu, out))
	}
	return 0
}

// parse reads `<scenario> --<param> <value> … [--warmup-<param> <value> …] --inner-warmup K
// --iterations M`; every parameter is required.
func parse(args []string) (invocation, error) {
	if len(args) == 0 {
		return invocation{}, fmt.Errorf("missing scenario")
	}
	sc, ok := scenarios[args[0]]
	if !ok {
		return invocation{}, fmt.Errorf("unknown scenario %q", args[0])
	}
	values, overrides := params{}, params{}
	for at := 1; at < len(args); at += 2 {
		end := at + 2
		if end > len(args) {
			end = len(args)
		}
		pair := args[at:end]
		name, isFlag := strings.CutPrefix(pair[0], "--")
		if !isFlag || len(pair) < 2 {
			return invocation{}, fmt.Errorf("expected --<param> <value>, got %q", pair)
		}
		value, err := strconv.Atoi(pair[1])
		if err != nil || value < 0 {
			return invocation{}, fmt.Errorf("--%s: %q is not a count", name, pair[1])
		}
		param, isWarmup := strings.CutPrefix(name, warmupParamFlag)
		if isWarmup && contains(sc.params, param) {
			overrides[param] = value
		} else {
			values[name] = value
		}
	}
	flags := append(append([]string{}, sc.params...), warmupFlag, iterationsFlag)
	for _, name := range flags {
		if _, ok := values[name]; !ok {
			return invocation{}, fmt.Errorf("%s needs --%s", args[0], name)
		}
	}
	if len(values) != len(flags) {
		return invocation{}, fmt.Errorf("%s takes only --%s and --%s<param>",
			args[0], strings.Join(flags, ", --"), warmupParamFlag)
	}
	inv := invocation{
		scenario:   sc,
		warmup:     values[warmupFlag],
		iterations: values[iterationsFlag],
	}
	if inv.iterations < 1 {
		return invocation{}, fmt.Errorf("--%s must be at least 1", iterationsFlag)
	}
	delete(values, warmupFlag)
	delete(values, iterationsFlag)
	inv.values = values
	inv.warmValues = params{}
	for _, p := range []params{values, overrides} {
		for name, value := range p {
			inv.warmValues[name] = value
		}
	}
	return inv, nil
}

// contains reports whether names holds name (slices.Contains, Go 1.21).
func contains(names []string, name string) bool {
	for _, n := range names {
		if n == name {
			return true
		}
	}
	return false
}

// processCPU is the CPU time (user + system, every thread) the process has used so far;
// 0 if getrusage fails.
func processCPU() time.Duration {
	var usage syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &usage) != nil {
		return 0
	}
	return time.Duration(usage.Utime.Nano() + usage.Stime.Nano())
}

// resultLine is `{"elapsed_ns":…,"cpu_ns":…,"checksum":…,"extra":{…}}`, written by hand as
// every figure is an integer.
func resultLine(elapsed, cpu time.Duration, out outcome) string {
	var line strings.Builder
	fmt.Fprintf(&line, `{"elapsed_ns":%d,"cpu_ns":%d,"checksum":%d,"extra":{`,
		elapsed.Nanoseconds(), cpu.Nanoseconds(), out.checksum)
	for i, f := range out.extra {
		if i > 0 {
			line.WriteString(",")
		}
		fmt.Fprintf(&line, `"%s":%d`, f.name, f.value)
	}
	line.WriteString("}}")
	return line.String()
}
