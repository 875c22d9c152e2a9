// The java-completable contestant: the scenarios as CompletableFuture stages on the default
// async pool (ForkJoinPool.commonPool(), one worker fewer than cores), with no thread of the
// contestant's own blocked anywhere but the main thread's final join(). A task is a
// supplyAsync/runAsync; a sleep or fake I/O op is a stage run after a delay by
// CompletableFuture.delayedExecutor, the common pool's own timer; joins are allOf. Sockets
// are the JDK's asynchronous ones (NIO.2: AsynchronousServerSocketChannel and
// AsynchronousSocketChannel on the default channel group, epoll), each operation's
// CompletionHandler a CompletableFuture, so that a connection is a chain of stages as every
// other task here is.

package taskbench;

import static java.util.concurrent.TimeUnit.NANOSECONDS;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousServerSocketChannel;
import java.nio.channels.AsynchronousSocketChannel;
import java.nio.channels.CompletionHandler;
import java.nio.channels.NetworkChannel;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import taskbench.Requests.Transaction;
import taskbench.Requests.Upload;

public final class CompletableContestant implements Protocol.Scenarios {
    public static void main(String[] args) {
        Protocol.run(args, new CompletableContestant());
    }

    @Override
    public long spawn(int tasks) {
        return sumAll(tasks, i -> CompletableFuture.supplyAsync(() -> (long) i)).join();
    }

    /** Each task is handed to the pool `delay` after it is started. */
    @Override
    public long sleep(int tasks, Duration delay) {
        Executor later = after(delay);
        return sumAll(tasks, i -> CompletableFuture.supplyAsync(() -> (long) i, later)).join();
    }

    /** Each sleep is started by the stage that ends the one before. */
    @Override
    public Protocol.Outcome timer(Duration step, int sleeps) {
        long[] slept = new long[sleeps];
        var done = new CompletableFuture<Void>();
        sleepFrom(0, slept, after(step), done);
        done.join();
        return Protocol.Outcome.oversleep(slept, step);
    }

    @Override
    public long doxbee(int requests, Duration io) {
        Executor ioDone = after(io);
        return sumAll(requests, i -> CompletableFuture.supplyAsync(() -> new Upload(i))
                .thenCompose(upload -> upload(upload, ioDone))).join();
    }

    /** Each request is a task that begins its transaction and then fans out. */
    @Override
    public long parallel(int requests, int fanout, Duration io) {
        Executor ioDone = after(io);
        return sumAll(requests, r -> CompletableFuture
                .supplyAsync(Transaction::new)
                .thenCompose(tx -> fanOut(tx, fanout, ioDone))).join();
    }

    @Override
    public long skynet(int size) {
        return task(() -> skynet(0, size)).join();
    }

    @Override
    public long pingpong(int pairs, int rounds) {
        return sumAll(pairs, pair -> task(() -> pinger(rounds))).join();
    }

    /**
     * Link 1 is started with the sum 0; the last link completes the future the main thread
     * joins with the sum of all the links' numbers.
     */
    @Override
    public long chain(int length) {
        var done = new CompletableFuture<Long>();
        CompletableFuture.runAsync(() -> link(1, 0, length, done));
        return done.join();
    }

    @Override
    public long yield(int tasks, int yields) {
        throw new Protocol.Unsupported("CompletableFuture has no yield: the nearest thing, "
                + "going on in a new *Async stage, pushes it on the worker's own LIFO queue "
                + "and the worker runs it next, before any other task");
    }

    /**
     * The acceptor serves every connection with a task of its own (echoServer) while the
     * client tasks make their rounds; the main thread joins both.
     */
    @Override
    public long echo(int connections, int rounds, int bytes) {
        var listener = listen(connections);
        var address = localAddress(listener);
        var served = acceptAll(listener, connections, CompletableContestant::echoServer,
                new CompletableFuture<>());
        return sumAll(connections, c -> task(() -> echoClient(address, c, rounds, bytes)))
                .thenCombine(served, (sum, v) -> sum)
                .join();
    }

    /**
     * Every client completes its own `connected` future once connected, then awaits `go`,
     * which the main thread completes once every client is connected and the acceptor has
     * started a server task for every connection (`accepted`).
     */
    @Override
    public long connections(int connections) {
        var listener = listen(connections);
        var address = localAddress(listener);
        var accepted = new CompletableFuture<Void>();
        var served = acceptAll(listener, connections, CompletableContestant::holdServer,
                accepted);
        var connected = new CompletableFuture<?>[connections];
        var go = new CompletableFuture<Void>();
        var clients = sumAll(connections, c -> {
            var mine = new CompletableFuture<Void>();
            connected[c] = mine;
            return task(() -> heldClient(address, c, mine, go));
        });
        CompletableFuture.allOf(connected).join();
        accepted.join();
        go.complete(null);
        return clients.thenCombine(served, (sum, v) -> sum).join();
    }

    /** An executor that runs its task on the common pool `delay` after it is handed one. */
    private static Executor after(Duration delay) {
        return CompletableFuture.delayedExecutor(delay.toNanos(), NANOSECONDS);
    }

    /** A task on the pool whose result is the future `body` returns. */
    private static <T> CompletableFuture<T> task(Supplier<CompletableFuture<T>> body) {
        return CompletableFuture.supplyAsync(body).thenCompose(Function.identity());
    }

    /** Starts task(0) … task(n−1), joins them with allOf and sums their results. */
    private static CompletableFuture<Long> sumAll(
            int n, IntFunction<CompletableFuture<Long>> task) {
        var started = new ArrayList<CompletableFuture<Long>>(n);
        for (int i = 0; i < n; i++) {
            started.add(task.apply(i));
        }
        return CompletableFuture.allOf(started.toArray(CompletableFuture<?>[]::new))
                .thenApply(all -> {
                    long sum = 0;
                    for (var result : started) {
                        sum += result.join(); // completed: allOf has
                    }
                    return sum;
                });
    }

    /**
     * One fake I/O op: the call, with its query made and let go, then its completion, a
     * stage made for this call that `ioDone` runs on the pool once the op's time is up.
     */
    private static CompletableFuture<Void> fakeIo(Transaction tx, int index, Executor ioDone) {
        tx.call(index);
        return CompletableFuture.runAsync(tx::complete, ioDone);
    }

    /** One parallel request after its transaction began: its ops, joined, then the commit. */
    private static CompletableFuture<Long> fanOut(Transaction tx, int fanout, Executor ioDone) {
        var ops = new CompletableFuture<?>[fanout];
        for (int k = 0; k < fanout; k++) {
            ops[k] = fakeIo(tx, k, ioDone);
        }
        return CompletableFuture.allOf(ops)
                .thenCompose(v -> fakeIo(tx, fanout, ioDone)) // commit
                .thenApply(v -> tx.done());
    }

    /** One doxbee upload after its step 1: every step waits for the one before. */
    private static CompletableFuture<Long> upload(Upload upload, Executor ioDone) {
        var tx = upload.tx;
        return fakeIo(tx, 2, ioDone) // 2. put the blob
                .thenCompose(v -> fakeIo(tx, 3, ioDone)) // 3. look the file up: it never exists
                .thenCompose(v -> {
                    upload.buildVersion(); // 4. the version record
                    return fakeIo(tx, 5, ioDone); // 5. insert the version
                })
                .thenCompose(v -> {
                    upload.buildFileQuery(); // 6. the "create file" query, executed
                    return fakeIo(tx, 6, ioDone);
                })
                .thenCompose(v -> fakeIo(tx, 7, ioDone)) // 7. insert the file–version link
                .thenCompose(v -> fakeIo(tx, 8, ioDone)) // 8. update the file's current version
                .thenCompose(v -> fakeIo(tx, 9, ioDone)) // 9. commit
                .thenApply(v -> upload.finish());
    }

    /** Sleep k of the timer: timed when its stage runs, which then starts sleep k+1. */
    private static void sleepFrom(
            int k, long[] slept, Executor later, CompletableFuture<Void> done) {
        if (k == slept.length) {
            done.complete(null);
            return;
        }
        long start = System.nanoTime();
        CompletableFuture.runAsync(() -> {
            slept[k] = System.nanoTime() - start;
            sleepFrom(k + 1, slept, later, done);
        }, later);
    }

    /** A leaf is its number; an inner node starts its ten children as tasks and sums them. */
    private static CompletableFuture<Long> skynet(long num, int size) {
        if (size == 1) {
            return CompletableFuture.completedFuture(num);
        }
        int child = size / 10;
        return sumAll(10, k -> task(() -> skynet(num + (long) k * child, child)));
    }

    /** One pair: the pinger starts its ponger and plays `rounds` round trips with it. */
    private static CompletableFuture<Long> pinger(int rounds) {
        var pings = new Channel<Integer>();
        var pongs = new Channel<Integer>();
        var ponger = new CompletableFuture<Void>();
        CompletableFuture.runAsync(() -> pong(pings, pongs, rounds, ponger));
        var replies = new CompletableFuture<Long>();
        ping(pings, pongs, 0, rounds, replies);
        return replies.thenCombine(ponger, (count, v) -> count);
    }

    /** The pinger's round `ball`: sends it; the reply, once received, starts the next round. */
    private static void ping(Channel<Integer> pings, Channel<Integer> pongs, int ball, int rounds,
            CompletableFuture<Long> replies) {
        if (ball == rounds) {
            replies.complete((long) ball); // the replies received
            return;
        }
        pings.send(ball);
        pongs.receive().thenAccept(reply -> ping(pings, pongs, ball + 1, rounds, replies));
    }

    /** The ponger returns each of `left` balls as it receives it. */
    private static void pong(Channel<Integer> pings, Channel<Integer> pongs, int left,
            CompletableFuture<Void> done) {
        if (left == 0) {
            done.complete(null);
            return;
        }
        pings.receive().thenAccept(ball -> {
            pongs.send(ball);
            pong(pings, pongs, left - 1, done);
        });
    }

    /**
     * Link n adds n to the sum it was handed, starts link n+1 with the new sum as a task and
     * ends; the last link completes `done` with the sum.
     */
    private static void link(int n, long sum, int length, CompletableFuture<Long> done) {
        long total = sum + n;
        if (n == length) {
            done.complete(total);
        } else {
            CompletableFuture.runAsync(() -> link(n + 1, total, length, done));
        }
    }

    /**
     * The listener on 127.0.0.1, an ephemeral port, with a backlog of `connections` (the
     * kernel caps it at net.core.somaxconn), in the default asynchronous channel group.
     */
    private static AsynchronousServerSocketChannel listen(int connections) {
        try {
            return AsynchronousServerSocketChannel.open()
                    .bind(new InetSocketAddress(Sockets.LOOPBACK, 0), connections);
        } catch (IOException e) {
            throw Protocol.socketFailed("listen", e);
        }
    }

    private static SocketAddress localAddress(AsynchronousServerSocketChannel listener) {
        try {
            return listener.getLocalAddress();
        } catch (IOException e) {
            throw Protocol.socketFailed("listener address", e);
        }
    }

    /**
     * The acceptor, a task: accepts n connections, one after the other, and starts a server
     * task for each as soon as it is accepted; once all are, closes the listener and
     * completes `accepted`. The future it returns completes once every server has.
     */
    private static CompletableFuture<Void> acceptAll(AsynchronousServerSocketChannel listener,
            int n, Function<AsynchronousSocketChannel, CompletableFuture<?>> serve,
            CompletableFuture<Void> accepted) {
        var servers = new ArrayList<CompletableFuture<?>>(n);
        return task(() -> {
            acceptFrom(0, n, listener, serve, servers, accepted);
            return accepted.thenCompose(
                    v -> CompletableFuture.allOf(servers.toArray(CompletableFuture<?>[]::new)));
        });
    }

    /**
     * Accepts connection k and starts its server; the accept's completion accepts the next.
     * `servers` is only touched here, each step after the one before.
     */
    private static void acceptFrom(int k, int n, AsynchronousServerSocketChannel listener,
            Function<AsynchronousSocketChannel, CompletableFuture<?>> serve,
            ArrayList<CompletableFuture<?>> servers, CompletableFuture<Void> accepted) {
        if (k == n) {
            close(listener, "close the listener");
            accepted.complete(null);
            return;
        }
        var connection = new Completion<AsynchronousSocketChannel>("accept");
        listener.accept(null, connection);
        connection.thenAccept(channel -> {
            noDelay(channel);
            servers.add(task(() -> serve.apply(channel)));
            acceptFrom(k + 1, n, listener, serve, servers, accepted);
        });
    }

    /** A client's channel, connected to the listener, TCP_NODELAY set. */
    private static CompletableFuture<AsynchronousSocketChannel> connect(SocketAddress address) {
        AsynchronousSocketChannel channel;
        try {
            channel = AsynchronousSocketChannel.open();
        } catch (IOException e) {
            throw Protocol.socketFailed("open a socket", e);
        }
        noDelay(channel);
        var connected = new Completion<Void>("connect");
        channel.connect(address, null, connected);
        return connected.thenApply(v -> channel);
    }

    /**
     * Writes back what each read (of up to 64 KiB) brings until the client closes its end;
     * each write's completion starts the next read.
     */
    private static CompletableFuture<Void> echoServer(AsynchronousSocketChannel channel) {
        var done = new CompletableFuture<Void>();
        echoFrom(channel, ByteBuffer.allocate(Sockets.SERVER_READ), done);
        return done;
    }

    private static void echoFrom(
            AsynchronousSocketChannel channel, ByteBuffer buffer, CompletableFuture<Void> done) {
        buffer.clear();
        var read = new Completion<Integer>("echo server read");
        channel.read(buffer, null, read);
        read.thenAccept(got -> {
            if (got == -1) {
                close(channel, "echo server close");
                done.complete(null);
                return;
            }
            buffer.flip();
            writeAll(channel, buffer).thenRun(() -> echoFrom(channel, buffer, done));
        });
    }

    /**
     * Client c's rounds: one write of `bytes` bytes of b(c, r), then reads until all of them
     * are back, adding up every byte received; the round's last read starts the next round.
     * Its future is that sum.
     */
    private static CompletableFuture<Long> echoClient(
            SocketAddress address, int c, int rounds, int bytes) {
        var sum = new CompletableFuture<Long>();
        connect(address).thenAccept(channel -> roundFrom(channel, c, 0, rounds,
                ByteBuffer.allocate(bytes), ByteBuffer.allocate(bytes), 0, sum));
        return sum;
    }

    private static void roundFrom(AsynchronousSocketChannel channel, int c, int r, int rounds,
            ByteBuffer sent, ByteBuffer received, long sum, CompletableFuture<Long> done) {
        if (r == rounds) {
            close(channel, "echo client close");
            done.complete(sum);
            return;
        }
        sent.clear();
        byte b = Sockets.pattern(c, r);
        while (sent.hasRemaining()) {
            sent.put(b);
        }
        sent.flip();
        received.clear();
        writeAll(channel, sent).thenCompose(v -> readFully(channel, received)).thenAccept(v -> {
            long total = sum;
            received.flip();
            while (received.hasRemaining()) {
                total += Byte.toUnsignedInt(received.get());
            }
            roundFrom(channel, c, r + 1, rounds, sent, received, total, done);
        });
    }

    /**
     * Waits in a read for the client's one byte (where the connection is held), writes it
     * back, waits for the end of the stream and closes.
     */
    private static CompletableFuture<Void> holdServer(AsynchronousSocketChannel channel) {
        var one = ByteBuffer.allocate(1);
        return readFully(channel, one)
                .thenCompose(v -> writeAll(channel, one.flip()))
                .thenCompose(v -> {
                    var end = new Completion<Integer>("connections server read");
                    channel.read(one.clear(), null, end);
                    return end;
                })
                .thenAccept(got -> {
                    if (got != -1) {
                        throw Protocol.socketFailed("connections server",
                                new IOException("data where the end of the stream was due"));
                    }
                    close(channel, "connections server close");
                });
    }

    /**
     * Client c connects, completes `connected`, awaits `go` and goes on as a task of the pool
     * (not inside the main thread that completes `go`), writes b(c, 0), reads it back,
     * closes; its future is that byte.
     */
    private static CompletableFuture<Long> heldClient(SocketAddress address, int c,
            CompletableFuture<Void> connected, CompletableFuture<Void> go) {
        return connect(address).thenCompose(channel -> {
            connected.complete(null);
            var one = ByteBuffer.allocate(1);
            return go.thenComposeAsync(
                            v -> writeAll(channel, one.put(Sockets.pattern(c, 0)).flip()))
                    .thenCompose(v -> readFully(channel, one.clear()))
                    .thenApply(v -> {
                        close(channel, "connections client close");
                        return (long) Byte.toUnsignedInt(one.get(0));
                    });
        });
    }

    /** Writes all of `buffer`: one write, and more only if the first leaves some behind. */
    private static CompletableFuture<Void> writeAll(
            AsynchronousSocketChannel channel, ByteBuffer buffer) {
        var written = new Completion<Integer>("write");
        channel.write(buffer, null, written);
        return written.thenCompose(n -> buffer.hasRemaining()
                ? writeAll(channel, buffer)
                : CompletableFuture.completedFuture(null));
    }

    /** Reads until `buffer` is full; the end of the stream before that fails the run. */
    private static CompletableFuture<Void> readFully(
            AsynchronousSocketChannel channel, ByteBuffer buffer) {
        var read = new Completion<Integer>("read");
        channel.read(buffer, null, read);
        return read.thenCompose(got -> {
            if (got == -1) {
                throw Protocol.socketFailed("read",
                        new IOException("the peer closed before all bytes came"));
            }
            return buffer.hasRemaining()
                    ? readFully(channel, buffer)
                    : CompletableFuture.completedFuture(null);
        });
    }

    private static void noDelay(AsynchronousSocketChannel channel) {
        try {
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
        } catch (IOException e) {
            throw Protocol.socketFailed("TCP_NODELAY", e);
        }
    }

    private static void close(NetworkChannel channel, String what) {
        try {
            channel.close();
        } catch (IOException e) {
            throw Protocol.socketFailed(what, e);
        }
    }

    /**
     * One NIO.2 operation's CompletionHandler as the future of its result: the JDK's bridge
     * from its callback API to CompletableFuture. A failed operation ends the run (a socket
     * error: never a wrong checksum or a stage left waiting).
     */
    private static final class Completion<V> extends CompletableFuture<V>
            implements CompletionHandler<V, Object> {
        private final String what;

        Completion(String what) {
            this.what = what;
        }

        @Override
        public void completed(V result, Object attachment) {
            complete(result);
        }

        @Override
        public void failed(Throwable e, Object attachment) {
            throw Protocol.socketFailed(what, e);
        }
    }

    /**
     * pingpong's channel. The JDK has no asynchronous channel, so, as in the Node contestants,
     * a receiver waits on a future that the sender completes: a oneshot per message, the shape
     * of tokio's own ping_pong bench. Unbounded, one receiver. The sender hands the message
     * over with completeAsync, so the receiver goes on as a task on the pool, as a woken task
     * does, rather than nested inside the sender.
     */
    private static final class Channel<T> {
        private final ArrayDeque<T> messages = new ArrayDeque<>();
        private CompletableFuture<T> receiver;

        void send(T message) {
            CompletableFuture<T> waiting;
            synchronized (this) {
                waiting = receiver;
                receiver = null;
                if (waiting == null) {
                    messages.add(message);
                    return;
                }
            }
            waiting.completeAsync(() -> message);
        }

        /** The next message: at once if one is waiting, else once it is sent. */
        synchronized CompletableFuture<T> receive() {
            if (messages.isEmpty()) {
                receiver = new CompletableFuture<>();
                return receiver;
            }
            return CompletableFuture.completedFuture(messages.poll());
        }
    }
}
