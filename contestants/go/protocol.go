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

// serve runs the invocation in args and returns the exit status: 0, or 2 when the command
// line is not understood.
func serve(args []string) int {
	sc, values, warmValues, warmup, iterations, err := parse(args)
	if err != nil {
		fmt.Fprintf(os.Stderr, "go-contestant: %v\n", err)
		return 2
	}
	for k := 0; k < warmup; k++ {
		sc.run(warmValues)
	}
	for k := 0; k < iterations; k++ {
		cpuStart := processCPU()
		start := time.Now()
		out := sc.run(values)
		elapsed := time.Since(start)
		cpu := processCPU() - cpuStart
		// os.Stdout is unbuffered: the line is written before the next iteration starts.
		fmt.Println(resultLine(elapsed, cpu, out))
	}
	return 0
}

// parse reads `<scenario> --<param> <value> … [--warmup-<param> <value> …] --inner-warmup K
// --iterations M`; every parameter is required. It returns the measured iterations'
// parameters and the warm-up iterations' (the same, but for the `--warmup-<param>` ones).
func parse(args []string) (sc scenario, values, warmValues params, warmup, iterations int, err error) {
	if len(args) == 0 {
		return sc, nil, nil, 0, 0, fmt.Errorf("missing scenario")
	}
	sc, ok := scenarios[args[0]]
	if !ok {
		return sc, nil, nil, 0, 0, fmt.Errorf("unknown scenario %q", args[0])
	}
	values, overrides := params{}, params{}
	for rest := args[1:]; len(rest) > 0; rest = rest[2:] {
		name := strings.TrimPrefix(rest[0], "--")
		if name == rest[0] || len(rest) < 2 {
			return sc, nil, nil, 0, 0, fmt.Errorf("expected --<param> <value>, got %q", rest)
		}
		value, err := strconv.Atoi(rest[1])
		if err != nil || value < 0 {
			return sc, nil, nil, 0, 0, fmt.Errorf("--%s: %q is not a count", name, rest[1])
		}
		if param := strings.TrimPrefix(name, warmupParamFlag); param != name && sc.takes(param) {
			overrides[param] = value
		} else {
			values[name] = value
		}
	}
	flags := append(sc.params, warmupFlag, iterationsFlag)
	for _, name := range flags {
		if _, ok := values[name]; !ok {
			return sc, nil, nil, 0, 0, fmt.Errorf("%s needs --%s", args[0], name)
		}
	}
	if len(values) != len(flags) {
		return sc, nil, nil, 0, 0, fmt.Errorf("%s takes only --%s and --%s<param>",
			args[0], strings.Join(flags, ", --"), warmupParamFlag)
	}
	warmup, iterations = values[warmupFlag], values[iterationsFlag]
	if iterations < 1 {
		return sc, nil, nil, 0, 0, fmt.Errorf("--%s must be at least 1", iterationsFlag)
	}
	delete(values, warmupFlag)
	delete(values, iterationsFlag)
	warmValues = params{}
	for name, value := range values {
		warmValues[name] = value
	}
	for name, value := range overrides {
		warmValues[name] = value
	}
	return sc, values, warmValues, warmup, iterations, nil
}

// takes says whether param is one of the scenario's parameters.
func (sc scenario) takes(param string) bool {
	for _, name := range sc.params {
		if name == param {
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
