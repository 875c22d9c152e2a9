// The java-structured contestant: lib/BlockingScenarios.java's scenarios with every group of
// tasks forked into a StructuredTaskScope (JEP 505, a preview API in JDK 25), as the JEP's
// examples write it: StructuredTaskScope.open() in a try-with-resources (the default joiner:
// every subtask must succeed), a fork per task, join(), then each Subtask's get(). The
// subtasks are virtual threads on the JDK's default scheduler, as in java-virtual; what
// differs is the scope, whose lifetime bounds its subtasks.

package taskbench;

import java.util.ArrayList;
import java.util.concurrent.StructuredTaskScope;
import java.util.concurrent.StructuredTaskScope.Subtask;
import java.util.concurrent.SynchronousQueue;
import java.util.function.IntFunction;
import java.util.function.IntToLongFunction;
import java.util.function.LongSupplier;
import java.util.function.ToLongFunction;

public final class StructuredContestant extends BlockingScenarios {
    public static void main(String[] args) {
        Protocol.run(args, new StructuredContestant());
    }

    /**
     * The main thread forks link 1 with the sum 0 and waits for the last link's sum of all
     * the links' numbers. Only a scope's owner
     * may fork into it (a subtask that tries gets WrongThreadException), and a subtask cannot
     * outlive its scope, so each link opens a scope of its own, forks the next link into it
     * and joins it: a link ends once the rest of the chain has, and all `length` are alive
     * at the end (java-virtual's links end as soon as they have started the next).
     */
    @Override
    public long chain(int length) {
        var done = new SynchronousQueue<Long>();
        try (var scope = StructuredTaskScope.open()) {
            scope.fork(() -> link(1, 0, length, done));
            long last = take(done);
            join(scope);
            return last;
        }
    }

    /** A scope with a subtask per task, joined; the sum of the subtasks' results. */
    @Override
    protected long spawnSum(int n, IntToLongFunction task) {
        try (var scope = StructuredTaskScope.open()) {
            var subtasks = new ArrayList<Subtask<Long>>(n);
            for (int i = 0; i < n; i++) {
                int k = i;
                subtasks.add(scope.fork(() -> task.applyAsLong(k)));
            }
            join(scope);
            long sum = 0;
            for (var subtask : subtasks) {
                sum += subtask.get();
            }
            return sum;
        }
    }

    /**
     * A scope into which each item's subtask is forked as soon as the item is made, then
     * `started` run by the owner, then joined; the sum of the subtasks' results. (The
     * acceptor owns the scope of its servers: it forks each and joins them all.)
     */
    @Override
    protected <T> long spawnEach(
            int n, IntFunction<T> next, ToLongFunction<T> task, Runnable started) {
        try (var scope = StructuredTaskScope.open()) {
            var subtasks = new ArrayList<Subtask<Long>>(n);
            for (int i = 0; i < n; i++) {
                T item = next.apply(i);
                subtasks.add(scope.fork(() -> task.applyAsLong(item)));
            }
            started.run();
            join(scope);
            long sum = 0;
            for (var subtask : subtasks) {
                sum += subtask.get();
            }
            return sum;
        }
    }

    /** The companion forked into a scope that the body's thread joins once it is done. */
    @Override
    protected long alongside(Runnable companion, LongSupplier body) {
        try (var scope = StructuredTaskScope.open()) {
            scope.fork(companion);
            long result = body.getAsLong();
            join(scope);
            return result;
        }
    }

    /**
     * Link n adds n to the sum it was handed and forks link n+1 with the new sum in its own
     * scope and joins it; the last hands over the sum.
     */
    private static void link(int n, long sum, int length, SynchronousQueue<Long> done) {
        long total = sum + n;
        if (n == length) {
            put(done, total);
            return;
        }
        try (var scope = StructuredTaskScope.open()) {
            scope.fork(() -> link(n + 1, total, length, done));
            join(scope);
        }
    }

    /** Waits for every subtask; one that failed ends the run with its exception. */
    private static void join(StructuredTaskScope<?, ?> scope) {
        try {
            scope.join();
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
