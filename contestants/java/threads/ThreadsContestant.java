// The java-threads contestant: a platform (OS) thread per task, from
// Executors.newThreadPerTaskExecutor with the platform-thread factory (JEP 444's counterpart
// of the virtual-thread executor), with the JDK's defaults (1 MiB stacks). The scenarios are
// lib/ThreadPerTask.java's (lib/BlockingScenarios.java's, as java-virtual's and
// java-structured's, with an executor per group of tasks).

package taskbench;

import java.util.concurrent.Executors;

public final class ThreadsContestant {
    public static void main(String[] args) {
        var platform = Thread.ofPlatform().factory();
        Protocol.run(args, new ThreadPerTask(() -> Executors.newThreadPerTaskExecutor(platform)));
    }
}
