// The java-threads contestant: a platform (OS) thread per task, with the JDK's defaults
// (1 MiB stacks). The scenarios are lib/ThreadPerTask.java's, shared with java-virtual.

package taskbench;

public final class ThreadsContestant {
    public static void main(String[] args) {
        Protocol.run(args, new ThreadPerTask(Thread.ofPlatform()));
    }
}
