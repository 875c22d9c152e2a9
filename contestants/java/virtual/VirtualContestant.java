// The java-virtual contestant: lib/BlockingScenarios.java's scenarios with a virtual thread
// per task (JEP 444) on the JDK's default scheduler (a ForkJoinPool of one carrier per core),
// each started with Thread.startVirtualThread and waited for with join(), as the Loom
// project's own examples and stress tests write it (wiki "Getting started";
// test/jdk/java/lang/Thread/virtual/stress/Skynet.java, PingPong.java). Virtual threads are
// cheap enough to start one per task and never pool them; a group of tasks needs no
// executor, and a task's result needs no Future: it is written into an array slot that only
// its thread writes, read after join(), which orders the two.

package taskbench;

import java.util.concurrent.SynchronousQueue;
import java.util.function.IntFunction;
import java.util.function.IntToLongFunction;
import java.util.function.LongSupplier;
import java.util.function.ToLongFunction;

public final class VirtualContestant extends BlockingScenarios {
    public static void main(String[] args) {
        Protocol.run(args, new VirtualContestant());
    }

    /**
     * The main thread starts link 1 with the sum 0 and waits for the last link's sum of all
     * the links' numbers; every link starts the next and ends, so nothing joins the links.
     */
    @Override
    public long chain(int length) {
        var done = new SynchronousQueue<Long>();
        Thread.startVirtualThread(() -> link(1, 0, length, done));
        return take(done);
    }

    /**
     * Starts task(0) … task(n−1), a virtual thread each, all before the first is joined; then
     * joins them in start order and sums the results they left in `results`.
     */
    @Override
    protected long spawnSum(int n, IntToLongFunction task) {
        var results = new long[n];
        var threads = new Thread[n];
        for (int i = 0; i < n; i++) {
            int k = i;
            threads[i] = Thread.startVirtualThread(() -> results[k] = task.applyAsLong(k));
        }
        long sum = 0;
        for (int i = 0; i < n; i++) {
            join(threads[i]);
            sum += results[i];
        }
        return sum;
    }

    /**
     * Makes each item and starts task(item) in a virtual thread at once, then runs `started`;
     * then joins the threads in start order and sums the results they left in `results`.
     */
    @Override
    protected <T> long spawnEach(
            int n, IntFunction<T> next, ToLongFunction<T> task, Runnable started) {
        var results = new long[n];
        var threads = new Thread[n];
        for (int i = 0; i < n; i++) {
            int k = i;
            T item = next.apply(i);
            threads[i] = Thread.startVirtualThread(() -> results[k] = task.applyAsLong(item));
        }
        started.run();
        long sum = 0;
        for (int i = 0; i < n; i++) {
            join(threads[i]);
            sum += results[i];
        }
        return sum;
    }

    /** The companion in a virtual thread of its own, joined once the body is done. */
    @Override
    protected long alongside(Runnable companion, LongSupplier body) {
        var thread = Thread.startVirtualThread(companion);
        long result = body.getAsLong();
        join(thread);
        return result;
    }

    /**
     * Link n adds n to the sum it was handed, starts link n+1 with the new sum and ends; the
     * last link hands the sum to the main thread.
     */
    private static void link(int n, long sum, int length, SynchronousQueue<Long> done) {
        long total = sum + n;
        if (n == length) {
            put(done, total);
        } else {
            Thread.startVirtualThread(() -> link(n + 1, total, length, done));
        }
    }

    /**
     * Waits for the thread to end. A task that threw has already ended the run: Protocol's
     * uncaught-exception handler halts the process, so a missing result is never summed.
     */
    private static void join(Thread thread) {
        try {
            thread.join();
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
