// The nine scenarios as blocking code with a thread per task, shared by every Java contestant
// whose tasks are threads: java-threads (lib/ThreadPerTask.java: an executor per group of
// tasks, JEP 444's shape), java-virtual (a Thread.startVirtualThread per task, each joined)
// and java-structured (a StructuredTaskScope per group, JEP 505's). What differs is only how
// a group of tasks is started and joined (spawnSum), how a task runs alongside its starter
// (alongside: pingpong's ponger) and chain, whose links outlive their spawner with an
// executor or bare threads and cannot within a scope; the rest is here once: Thread.sleep for
// timers and fake I/O, a SynchronousQueue per direction (the j.u.c. rendezvous, like Go's
// unbuffered channels), Thread.yield.

package taskbench;

import java.time.Duration;
import java.util.concurrent.SynchronousQueue;
import java.util.function.IntToLongFunction;
import java.util.function.LongSupplier;
import taskbench.Requests.Transaction;
import taskbench.Requests.Upload;

public abstract class BlockingScenarios implements Protocol.Scenarios {
    /**
     * Starts task(0) … task(n−1), a thread each, all before the first is waited for; then
     * returns the sum of their results once every thread has ended.
     */
    protected abstract long spawnSum(int n, IntToLongFunction task);

    /** Runs `companion` in a new thread while this one runs `body`; returns once both ended. */
    protected abstract long alongside(Runnable companion, LongSupplier body);

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

    /** One pair: the pinger plays `rounds` round trips with its ponger, which runs alongside. */
    private long pinger(int rounds) {
        var ping = new SynchronousQueue<Integer>();
        var pong = new SynchronousQueue<Integer>();
        Runnable ponger = () -> {
            for (int k = 0; k < rounds; k++) {
                put(pong, take(ping));
            }
        };
        return alongside(ponger, () -> {
            long replies = 0;
            for (int ball = 0; ball < rounds; ball++) {
                put(ping, ball);
                take(pong);
                replies++;
            }
            return replies;
        });
    }

    // Nothing here interrupts a thread: an interrupt would be a bug, and ends the run.

    private static void sleepFor(Duration delay) {
        try {
            Thread.sleep(delay);
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    protected static <T> void put(SynchronousQueue<T> queue, T message) {
        try {
            queue.put(message);
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    protected static <T> T take(SynchronousQueue<T> queue) {
        try {
            return queue.take();
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
