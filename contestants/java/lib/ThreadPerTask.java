// The nine scenarios with a thread per task, shared by java-threads (platform threads) and
// java-virtual (virtual threads): the two differ only in the thread-per-task executor they
// pass (Executors.newVirtualThreadPerTaskExecutor(), or newThreadPerTaskExecutor with the
// platform-thread factory), so the comparison is the thread kind and nothing else. The code is
// JEP 444's own shape: each group of tasks is submitted to a new executor opened in a
// try-with-resources, its results are read from the futures, and close() waits for the
// threads; then Thread.sleep, a SynchronousQueue per direction (the j.u.c. rendezvous, like
// Go's unbuffered channels), Thread.yield.

package taskbench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.SynchronousQueue;
import java.util.function.IntToLongFunction;
import java.util.function.Supplier;
import taskbench.Requests.Transaction;
import taskbench.Requests.Upload;

public final class ThreadPerTask implements Protocol.Scenarios {
    /** A new executor that starts a new thread for each task. */
    private final Supplier<ExecutorService> executors;

    public ThreadPerTask(Supplier<ExecutorService> executors) {
        this.executors = executors;
    }

    @Override
    public long spawn(int tasks) {
        return spawnSum(tasks, i -> i);
    }

    @Override
    public long sleep(int tasks, Duration delay) {
        return spawnSum(tasks, i -> {
            sleepFor(delay);
            return i;
        });
    }

    /** One thread sleeps `step` again and again, timing every sleep. */
    @Override
    public Protocol.Outcome timer(Duration step, int sleeps) {
        long[] slept = new long[sleeps];
        spawnSum(1, thread -> {
            for (int k = 0; k < sleeps; k++) {
                long start = System.nanoTime();
                sleepFor(step);
                slept[k] = System.nanoTime() - start;
            }
            return sleeps;
        });
        return Protocol.Outcome.oversleep(slept, step);
    }

    /** A thread per upload; its seven fake I/O ops block it in turn. */
    @Override
    public long doxbee(int requests, Duration io) {
        return spawnSum(requests, i -> {
            var upload = new Upload(i); // 1. create the blob, begin the transaction
            fakeIo(upload.tx, 2, io); // 2. put the blob
            fakeIo(upload.tx, 3, io); // 3. look the file up: it never exists
            upload.buildVersion(); // 4. the version record
            fakeIo(upload.tx, 5, io); // 5. insert the version
            upload.buildFileQuery(); // 6. the "create file" query, executed
            fakeIo(upload.tx, 6, io);
            fakeIo(upload.tx, 7, io); // 7. insert the file–version link
            fakeIo(upload.tx, 8, io); // 8. update the file's current version
            fakeIo(upload.tx, 9, io); // 9. commit
            return upload.finish();
        });
    }

    /** A thread per request and one per fan-out op; the request commits once all are joined. */
    @Override
    public long parallel(int requests, int fanout, Duration io) {
        return spawnSum(requests, r -> {
            var tx = new Transaction();
            spawnSum(fanout, k -> {
                fakeIo(tx, k, io);
                return 0;
            });
            fakeIo(tx, fanout, io); // commit
            return tx.done();
        });
    }

    /** The root node runs in a thread of its own, as in the original. */
    @Override
    public long skynet(int size) {
        return spawnSum(1, root -> skynet(0, size));
    }

    @Override
    public long pingpong(int pairs, int rounds) {
        return spawnSum(pairs, pair -> pinger(rounds));
    }

    /**
     * The main thread starts link 1 and waits for the last link's number; every link starts
     * the next in the same executor, whose close() then waits for the links still ending.
     */
    @Override
    public long chain(int length) {
        var done = new SynchronousQueue<Integer>();
        try (var executor = executors.get()) {
            executor.execute(() -> link(executor, 1, length, done));
            return take(done);
        }
    }

    @Override
    public long yield(int tasks, int yields) {
        return spawnSum(tasks, i -> {
            int count = 0;
            while (count < yields) {
                Thread.yield();
                count++;
            }
            return count;
        });
    }

    /**
     * Submits task(0) … task(n−1) to a new executor, a thread each, all before the first is
     * waited for; then sums their results in submission order, and close() waits for the
     * threads to end.
     */
    private long spawnSum(int n, IntToLongFunction task) {
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

    /** One fake I/O op: the call, with its query made and let go, then a Thread.sleep. */
    private static void fakeIo(Transaction tx, int index, Duration io) {
        tx.call(index);
        sleepFor(io);
        tx.complete();
    }

    /** A leaf returns its number; an inner node starts its ten children and sums them. */
    private long skynet(long num, int size) {
        if (size == 1) {
            return num;
        }
        int child = size / 10;
        return spawnSum(10, k -> skynet(num + (long) k * child, child));
    }

    /**
     * One pair: the pinger starts its ponger and plays `rounds` round trips with it; close()
     * waits for the ponger to end.
     */
    private long pinger(int rounds) {
        var ping = new SynchronousQueue<Integer>();
        var pong = new SynchronousQueue<Integer>();
        try (var executor = executors.get()) {
            executor.execute(() -> {
                for (int k = 0; k < rounds; k++) {
                    put(pong, take(ping));
                }
            });
            long replies = 0;
            for (int ball = 0; ball < rounds; ball++) {
                put(ping, ball);
                take(pong);
                replies++;
            }
            return replies;
        }
    }

    /** Link n starts link n+1 and ends; the last link hands its number to the main thread. */
    private static void link(Executor executor, int n, int length, SynchronousQueue<Integer> done) {
        if (n == length) {
            put(done, n);
        } else {
            executor.execute(() -> link(executor, n + 1, length, done));
        }
    }

    // Nothing here interrupts a thread: an interrupt would be a bug, and ends the run.

    /** A task's result; a task that threw ends the run with its exception. */
    private static long get(Future<Long> result) {
        try {
            return result.get();
        } catch (InterruptedException | ExecutionException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void sleepFor(Duration delay) {
        try {
            Thread.sleep(delay);
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    private static <T> void put(SynchronousQueue<T> queue, T message) {
        try {
            queue.put(message);
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    private static <T> T take(SynchronousQueue<T> queue) {
        try {
            return queue.take();
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
