// lib/BlockingScenarios.java's scenarios with a thread-per-task executor, for java-threads
// (platform threads: newThreadPerTaskExecutor with the platform-thread factory). The code is
// JEP 444's own shape: each group of tasks is submitted to a new executor opened in a
// try-with-resources, its results are read from the futures, and close() waits for the
// threads. java-virtual, which used this class with newVirtualThreadPerTaskExecutor(), now
// starts and joins its virtual threads itself (virtual/VirtualContestant.java).

package taskbench;

import java.util.ArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.SynchronousQueue;
import java.util.function.IntFunction;
import java.util.function.IntToLongFunction;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

public final class ThreadPerTask extends BlockingScenarios {
    /** A new executor that starts a new thread for each task. */
    private final Supplier<ExecutorService> executors;

    public ThreadPerTask(Supplier<ExecutorService> executors) {
        this.executors = executors;
    }

    /**
     * The main thread starts link 1 with the sum 0 and waits for the last link's sum of all
     * the links' numbers; every link starts the next in the same executor, whose close() then
     * waits for the links still ending.
     */
    @Override
    public long chain(int length) {
        var done = new SynchronousQueue<Long>();
        try (var executor = executors.get()) {
            executor.execute(() -> link(executor, 1, 0, length, done));
            return take(done);
        }
    }

    /**
     * Submits task(0) … task(n−1) to a new executor, a thread each, all before the first is
     * waited for; then sums their results in submission order, and close() waits for the
     * threads to end.
     */
    @Override
    protected long spawnSum(int n, IntToLongFunction task) {
        var results = new ArrayList<Future<Long>>(n);
        try (var executor = executors.get()) {
            for (int i = 0; i < n; i++) {
                int k = i;
                results.add(executor.submit(() -> task.applyAsLong(k)));
            }
            long sum = 0;
            for (var result : results) {
                sum += get(result);
            }
            return sum;
        }
    }

    /**
     * Makes each item and submits task(item) to a new executor at once, then runs `started`;
     * then sums the results in submission order, and close() waits for the threads to end.
     */
    @Override
    protected <T> long spawnEach(
            int n, IntFunction<T> next, ToLongFunction<T> task, Runnable started) {
        var results = new ArrayList<Future<Long>>(n);
        try (var executor = executors.get()) {
            for (int i = 0; i < n; i++) {
                T item = next.apply(i);
                results.add(executor.submit(() -> task.applyAsLong(item)));
            }
            started.run();
            long sum = 0;
            for (var result : results) {
                sum += get(result);
            }
            return sum;
        }
    }

    /** The companion in a thread of a new executor, whose close() waits for it. */
    @Override
    protected long alongside(Runnable companion, LongSupplier body) {
        try (var executor = executors.get()) {
            executor.execute(companion);
            return body.getAsLong();
        }
    }

    /**
     * Link n adds n to the sum it was handed, starts link n+1 with the new sum and ends; the
     * last link hands the sum to the main thread.
     */
    private static void link(
            Executor executor, int n, long sum, int length, SynchronousQueue<Long> done) {
        long total = sum + n;
        if (n == length) {
            put(done, total);
        } else {
            executor.execute(() -> link(executor, n + 1, total, length, done));
        }
    }

    /** A task's result; a task that threw ends the run with its exception. */
    private static long get(Future<Long> result) {
        try {
            return result.get();
        } catch (InterruptedException | ExecutionException e) {
            throw new IllegalStateException(e);
        }
    }
}
