// The java-virtual contestant: a virtual thread per task, from
// Executors.newVirtualThreadPerTaskExecutor() (JEP 444), on the JDK's default virtual-thread
// scheduler (a ForkJoinPool of one carrier per core). The scenarios are
// lib/ThreadPerTask.java's, shared with java-threads.

package taskbench;

import java.util.concurrent.Executors;

public final class VirtualContestant {
    public static void main(String[] args) {
        Protocol.run(args, new ThreadPerTask(Executors::newVirtualThreadPerTaskExecutor));
    }
}
