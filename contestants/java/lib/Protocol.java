// The contestant protocol of docs/PROTOCOL.md (version 2) for every Java contestant, so that
// each one only writes one iteration of each scenario: reads the command line, runs the
// unmeasured warm-up iterations, then the M measured ones, each timed with System.nanoTime()
// and the process CPU clock (clock_gettime(CLOCK_PROCESS_CPUTIME_ID) through the FFM API:
// every thread, nanoseconds; the JVM's own getProcessCpuTime counts 10 ms ticks on Linux)
// and followed by its JSON line, and exits. Exit 2: a command line not understood; 69: a
// scenario the contestant cannot express; 1, with one line on stderr: a failed run.

package taskbench;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SequencedMap;
import java.util.function.BiFunction;

public final class Protocol {
    private static final int EXIT_FAILURE = 1;
    private static final int EXIT_USAGE = 2;
    private static final int EXIT_UNAVAILABLE = 69;
    private static final String WARMUP_FLAG = "inner-warmup";
    private static final String ITERATIONS_FLAG = "iterations";
    // `--warmup-<param> V`: the warm-up iterations run with <param> = V (PROTOCOL.md §1).
    private static final String WARMUP_PARAM_PREFIX = "warmup-";

    private Protocol() {}

    /** One iteration of each scenario of PROTOCOL.md §4: what a contestant writes. */
    public interface Scenarios {
        long spawn(int tasks);

        long sleep(int tasks, Duration delay);

        /** `sleeps` sleeps of `step` in sequence on one task, each timed. */
        Outcome timer(Duration step, int sleeps);

        long doxbee(int requests, Duration io);

        long parallel(int requests, int fanout, Duration io);

        long skynet(int size);

        long pingpong(int pairs, int rounds);

        long chain(int length);

        long yield(int tasks, int yields);

        /**
         * `connections` clients, each served on a task of its own, each making `rounds` round
         * trips of `bytes` bytes over loopback TCP; the sum of every byte the clients received.
         */
        long echo(int connections, int rounds, int bytes);

        /**
         * `connections` loopback TCP pairs, all opened and held, then one byte each way once
         * every one is open; the sum of the bytes the clients received.
         */
        long connections(int connections);
    }

    /** Thrown by a scenario the contestant cannot express; the message says why. */
    public static final class Unsupported extends RuntimeException {
        public Unsupported(String why) {
            super(why);
        }
    }

    /** An iteration's checksum and its scenario-specific figures (the line's "extra"). */
    public record Outcome(long checksum, SequencedMap<String, Long> extra) {
        static Outcome of(long checksum) {
            return new Outcome(checksum, new LinkedHashMap<>());
        }

        /**
         * The timer scenario's outcome from the measured length of every sleep: the number of
         * sleeps, and the nearest-rank percentiles of how much longer than `step` each took,
         * clamped at 0.
         */
        public static Outcome oversleep(long[] sleptNs, Duration step) {
            long[] over = new long[sleptNs.length];
            for (int k = 0; k < over.length; k++) {
                over[k] = Math.max(0, sleptNs[k] - step.toNanos());
            }
            Arrays.sort(over);
            var extra = new LinkedHashMap<String, Long>();
            extra.put("oversleep_p50_ns", rank(over, 0.50));
            extra.put("oversleep_p99_ns", rank(over, 0.99));
            extra.put("oversleep_max_ns", rank(over, 1.0));
            return new Outcome(sleptNs.length, extra);
        }

        private static long rank(long[] sorted, double q) {
            if (sorted.length == 0) {
                return 0;
            }
            int index = Math.clamp((long) Math.ceil(q * sorted.length), 1, sorted.length);
            return sorted[index - 1];
        }
    }

    /** Each scenario's parameters in catalogue order, and how one iteration calls it. */
    private enum Scenario {
        SPAWN(List.of("tasks"), (s, p) -> Outcome.of(s.spawn(p.count("tasks")))),
        SLEEP(List.of("tasks", "delay-ms"),
                (s, p) -> Outcome.of(s.sleep(p.count("tasks"), p.millis("delay-ms")))),
        TIMER(List.of("step-us", "total-ms"), (s, p) -> {
            long stepUs = p.get("step-us");
            int sleeps = Math.toIntExact(p.get("total-ms") * 1000 / stepUs);
            return s.timer(Duration.ofNanos(stepUs * 1000), sleeps);
        }),
        DOXBEE(List.of("requests", "io-ms"),
                (s, p) -> Outcome.of(s.doxbee(p.count("requests"), p.millis("io-ms")))),
        PARALLEL(List.of("requests", "fanout", "io-ms"), (s, p) -> Outcome.of(
                s.parallel(p.count("requests"), p.count("fanout"), p.millis("io-ms")))),
        SKYNET(List.of("size"), (s, p) -> Outcome.of(s.skynet(p.count("size")))),
        PINGPONG(List.of("pairs", "rounds"),
                (s, p) -> Outcome.of(s.pingpong(p.count("pairs"), p.count("rounds")))),
        CHAIN(List.of("length"), (s, p) -> Outcome.of(s.chain(p.count("length")))),
        YIELD(List.of("tasks", "yields"),
                (s, p) -> Outcome.of(s.yield(p.count("tasks"), p.count("yields")))),
        ECHO(List.of("connections", "rounds", "bytes"), (s, p) -> Outcome.of(
                s.echo(p.count("connections"), p.count("rounds"), p.count("bytes")))),
        CONNECTIONS(List.of("connections"),
                (s, p) -> Outcome.of(s.connections(p.count("connections"))));

        final List<String> params;
        final BiFunction<Scenarios, Params, Outcome> iteration;

        Scenario(List<String> params, BiFunction<Scenarios, Params, Outcome> iteration) {
            this.params = params;
            this.iteration = iteration;
        }
    }

    /** The values of a scenario's parameters by their command-line names. */
    private record Params(Map<String, Long> values) {
        long get(String name) {
            return values.get(name);
        }

        int count(String name) {
            return Math.toIntExact(get(name));
        }

        Duration millis(String name) {
            return Duration.ofMillis(get(name));
        }
    }

    /** A parsed command line. */
    private record Invocation(
            Scenario scenario, Params params, Params warmupParams, long warmups, long iterations) {}

    /** Runs the invocation in `args` on `scenarios` and exits the process. */
    public static void run(String[] args, Scenarios scenarios) {
        // A thread that fails (a thread the OS refused to create, memory) ends the run.
        Thread.setDefaultUncaughtExceptionHandler((thread, e) -> fail(e));
        Invocation invocation = null;
        try {
            invocation = parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("java-contestant: " + e.getMessage());
            System.exit(EXIT_USAGE);
        }
        var iteration = invocation.scenario().iteration;
        try {
            for (long k = 0; k < invocation.warmups(); k++) {
                iteration.apply(scenarios, invocation.warmupParams());
            }
            for (long k = 0; k < invocation.iterations(); k++) {
                long cpuStart = processCpuNs();
                long start = System.nanoTime();
                Outcome outcome = iteration.apply(scenarios, invocation.params());
                long elapsed = System.nanoTime() - start;
                long cpu = processCpuNs() - cpuStart;
                System.out.println(line(elapsed, cpu, outcome));
                System.out.flush();
            }
        } catch (Unsupported e) {
            System.err.println(invocation.scenario().name().toLowerCase() + " not implemented: "
                    + e.getMessage());
            System.exit(EXIT_UNAVAILABLE);
        } catch (Throwable e) {
            fail(e);
        }
        // Exit at once: tearing the runtime down (threads still parked) is not the workload.
        System.exit(0);
    }

    /**
     * Ends a failed run with one line on stderr and status 1, whichever thread fails first;
     * `halt` skips shutdown hooks, which could wait on threads that failed with it.
     */
    private static void fail(Throwable e) {
        Throwable cause = e.getCause() != null ? e.getCause() : e; // CompletionException
        halt("run failed: " + cause);
    }

    /**
     * Ends the run at once, from whichever thread, with one line on stderr and status 1: a
     * socket operation `what` failed (a failed run, never a wrong checksum or a task left
     * waiting for a peer that is gone). Declared to return an exception so that a caller can
     * `throw` it where the compiler wants a value.
     */
    public static RuntimeException socketFailed(String what, Throwable e) {
        halt("run failed: " + what + ": " + e);
        return new IllegalStateException(what, e); // never reached: halt does not return
    }

    private static synchronized void halt(String line) {
        System.err.println("java-contestant: " + line);
        System.err.flush();
        Runtime.getRuntime().halt(EXIT_FAILURE);
    }

    /**
     * `<scenario> --<param> <value> … [--warmup-<param> <value> …] --inner-warmup K
     * --iterations M`; every parameter is required.
     */
    private static Invocation parse(String[] args) {
        if (args.length == 0) {
            throw new IllegalArgumentException("missing scenario");
        }
        Scenario scenario = Arrays.stream(Scenario.values())
                .filter(s -> s.name().toLowerCase().equals(args[0]))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException(
                        "unknown scenario '" + args[0] + "'"));
        var values = new HashMap<String, Long>();
        var overrides = new HashMap<String, Long>();
        for (int k = 1; k < args.length; k += 2) {
            if (!args[k].startsWith("--") || k + 1 == args.length) {
                throw new IllegalArgumentException("expected --<param> <value>, got '" + args[k]
                        + "'");
            }
            String name = args[k].substring(2);
            long value = count(name, args[k + 1]);
            String param = name.startsWith(WARMUP_PARAM_PREFIX)
                    ? name.substring(WARMUP_PARAM_PREFIX.length())
                    : null;
            if (param != null && scenario.params.contains(param)) {
                overrides.put(param, value);
            } else if (scenario.params.contains(name) || name.equals(WARMUP_FLAG)
                    || name.equals(ITERATIONS_FLAG)) {
                values.put(name, value);
            } else {
                throw new IllegalArgumentException(args[0] + " has no parameter --" + name);
            }
        }
        for (String name : scenario.params) {
            require(values, args[0], name);
        }
        long warmups = require(values, args[0], WARMUP_FLAG);
        long iterations = require(values, args[0], ITERATIONS_FLAG);
        if (iterations < 1) {
            throw new IllegalArgumentException("--" + ITERATIONS_FLAG + " must be at least 1");
        }
        var warmupValues = new HashMap<>(values);
        warmupValues.putAll(overrides);
        return new Invocation(
                scenario, new Params(values), new Params(warmupValues), warmups, iterations);
    }

    private static long require(Map<String, Long> values, String scenario, String name) {
        Long value = values.get(name);
        if (value == null) {
            throw new IllegalArgumentException(scenario + " needs --" + name);
        }
        return value;
    }

    private static long count(String name, String text) {
        if (!text.matches("[0-9]+")) {
            throw new IllegalArgumentException("--" + name + " needs a whole number, got '"
                    + text + "'");
        }
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + name + ": " + text + " is too large");
        }
    }

    /** Linux's CLOCK_PROCESS_CPUTIME_ID. */
    private static final int PROCESS_CPU_CLOCK = 2;

    /** libc's `int clock_gettime(clockid_t, struct timespec *)`. */
    private static final MethodHandle CLOCK_GETTIME = Linker.nativeLinker().downcallHandle(
            Linker.nativeLinker().defaultLookup().find("clock_gettime").orElseThrow(),
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.ADDRESS));

    /** The CPU time (user + system, every thread) the process has used, in nanoseconds. */
    private static long processCpuNs() {
        try (var arena = Arena.ofConfined()) {
            var timespec = arena.allocate(ValueLayout.JAVA_LONG, 2);
            int status = (int) CLOCK_GETTIME.invokeExact(PROCESS_CPU_CLOCK, timespec);
            if (status != 0) {
                return 0;
            }
            return timespec.getAtIndex(ValueLayout.JAVA_LONG, 0) * 1_000_000_000L
                    + timespec.getAtIndex(ValueLayout.JAVA_LONG, 1);
        } catch (Throwable e) {
            throw new IllegalStateException("clock_gettime", e);
        }
    }

    /** `{"elapsed_ns":…,"cpu_ns":…,"checksum":…,"extra":{…}}`: every figure is an integer. */
    private static String line(long elapsedNs, long cpuNs, Outcome outcome) {
        var line = new StringBuilder()
                .append("{\"elapsed_ns\":").append(elapsedNs)
                .append(",\"cpu_ns\":").append(cpuNs)
                .append(",\"checksum\":").append(outcome.checksum())
                .append(",\"extra\":{");
        String separator = "";
        for (var figure : outcome.extra().entrySet()) {
            line.append(separator).append('"').append(figure.getKey()).append("\":")
                    .append(figure.getValue());
            separator = ",";
        }
        return line.append("}}").toString();
    }
}
