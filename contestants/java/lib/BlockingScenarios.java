// The nine scenarios as blocking code with a thread per task, shared by every Java contestant
// whose tasks are threads: java-threads (lib/ThreadPerTask.java: an executor per group of
// tasks, JEP 444's shape), java-virtual (a Thread.startVirtualThread per task, each joined)
// and java-structured (a StructuredTaskScope per group, JEP 505's). What differs is only how
// a group of tasks is started and joined (spawnSum), how a task runs alongside its starter
// (alongside: pingpong's ponger) and chain, whose links outlive their spawner with an
// executor or bare threads and cannot within a scope; the rest is here once: Thread.sleep for
// timers and fake I/O, a SynchronousQueue per direction (the j.u.c. rendezvous, like Go's
// unbuffered channels), Thread.yield, and for the socket scenarios java.net's blocking
// ServerSocket and Socket with a thread per connection, as a Java server is written: each
// read, write, accept and connect blocks its thread (a virtual thread parks on the JDK's
// poller, epoll, and frees its carrier; a platform thread blocks in the kernel), and
// CountDownLatches for connections' "connected" and "go".

package taskbench;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.SynchronousQueue;
import java.util.function.IntFunction;
import java.util.function.IntToLongFunction;
import java.util.function.LongSupplier;
import java.util.function.ToLongFunction;
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

    /**
     * Starts a thread per item as soon as the item is made: for k = 0 … n−1 this thread makes
     * item k (`next`: an acceptor's accept()) and starts task(item k) on a thread of its own;
     * once all are started it runs `started`, then returns the sum of the tasks' results
     * once every thread has ended.
     */
    protected abstract <T> long spawnEach(
            int n, IntFunction<T> next, ToLongFunction<T> task, Runnable started);

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

    /**
     * The acceptor serves every connection on a thread of its own (echoServer) while this
     * thread's client threads make their rounds; ends once all have.
     */
    @Override
    public long echo(int connections, int rounds, int bytes) {
        try (var listener = listen(connections)) {
            var address = listener.getLocalSocketAddress();
            return alongside(
                    () -> acceptAll(listener, connections, BlockingScenarios::echoServer, () -> {}),
                    () -> spawnSum(connections, c -> echoClient(address, c, rounds, bytes)));
        } catch (IOException e) {
            throw Protocol.socketFailed("close the listener", e);
        }
    }

    /**
     * Every client counts `connected` down once connected and waits for `go`; this thread
     * counts `go` down once every client is connected and the acceptor has started a server
     * thread for every connection (`accepted`), then joins the clients.
     */
    @Override
    public long connections(int connections) {
        try (var listener = listen(connections)) {
            var address = listener.getLocalSocketAddress();
            var connected = new CountDownLatch(connections);
            var accepted = new CountDownLatch(1);
            var go = new CountDownLatch(1);
            return alongside(
                    () -> acceptAll(listener, connections, BlockingScenarios::holdServer,
                            accepted::countDown),
                    () -> spawnEach(connections, Integer::valueOf,
                            c -> heldClient(address, c, connected, go), () -> {
                                await(connected);
                                await(accepted);
                                go.countDown();
                            }));
        } catch (IOException e) {
            throw Protocol.socketFailed("close the listener", e);
        }
    }

    /**
     * The listener on 127.0.0.1, an ephemeral port, with a backlog of `connections` (the
     * kernel caps it at net.core.somaxconn; ServerSocket's own default is 50).
     */
    private static ServerSocket listen(int connections) {
        try {
            return new ServerSocket(0, connections, Sockets.LOOPBACK);
        } catch (IOException e) {
            throw Protocol.socketFailed("listen", e);
        }
    }

    /**
     * The acceptor: accepts n connections and serves each on a thread of its own as soon as
     * it is accepted; once all are, closes the listener and runs `accepted`; returns once
     * every server has.
     */
    private void acceptAll(
            ServerSocket listener, int n, ToLongFunction<Socket> serve, Runnable accepted) {
        spawnEach(n, k -> accept(listener), serve, () -> {
            close(listener);
            accepted.run();
        });
    }

    private static Socket accept(ServerSocket listener) {
        try {
            var socket = listener.accept();
            socket.setTcpNoDelay(true);
            return socket;
        } catch (IOException e) {
            throw Protocol.socketFailed("accept", e);
        }
    }

    /** A client's connection to the listener, TCP_NODELAY set. */
    private static Socket connect(SocketAddress address) {
        var socket = new Socket();
        try {
            socket.setTcpNoDelay(true);
            socket.connect(address);
            return socket;
        } catch (IOException e) {
            throw Protocol.socketFailed("connect", e);
        }
    }

    /** Writes back what each read (of up to 64 KiB) brings until the client closes its end. */
    private static long echoServer(Socket socket) {
        try (socket) {
            var in = socket.getInputStream();
            var out = socket.getOutputStream();
            var buffer = new byte[Sockets.SERVER_READ];
            int got;
            while ((got = in.read(buffer)) != -1) {
                out.write(buffer, 0, got);
            }
            return 0;
        } catch (IOException e) {
            throw Protocol.socketFailed("echo server", e);
        }
    }

    /**
     * Client c's rounds: one write of `bytes` bytes of b(c, r), then reads until all of them
     * are back, adding up every byte received. Returns that sum.
     */
    private static long echoClient(SocketAddress address, int c, int rounds, int bytes) {
        try (var socket = connect(address)) {
            var in = socket.getInputStream();
            var out = socket.getOutputStream();
            var sent = new byte[bytes];
            var received = new byte[bytes];
            long sum = 0;
            for (int r = 0; r < rounds; r++) {
                Arrays.fill(sent, Sockets.pattern(c, r));
                out.write(sent);
                if (in.readNBytes(received, 0, bytes) != bytes) {
                    throw new IOException("the server closed the connection mid-round");
                }
                for (byte b : received) {
                    sum += Byte.toUnsignedInt(b);
                }
            }
            return sum;
        } catch (IOException e) {
            throw Protocol.socketFailed("echo client", e);
        }
    }

    /**
     * Waits in a read for the client's one byte (where the connection is held), writes it
     * back, waits for the end of the stream and closes.
     */
    private static long holdServer(Socket socket) {
        try (socket) {
            var in = socket.getInputStream();
            int one = in.read();
            if (one == -1) {
                throw new IOException("the client closed before its byte");
            }
            socket.getOutputStream().write(one);
            if (in.read() != -1) {
                throw new IOException("a second byte where the end of the stream was due");
            }
            return 0;
        } catch (IOException e) {
            throw Protocol.socketFailed("connections server", e);
        }
    }

    /**
     * Client c connects, says so, waits for the go, writes b(c, 0), reads it back, closes
     * and returns it.
     */
    private static long heldClient(
            SocketAddress address, int c, CountDownLatch connected, CountDownLatch go) {
        try (var socket = connect(address)) {
            connected.countDown();
            await(go);
            socket.getOutputStream().write(Sockets.pattern(c, 0));
            int echoed = socket.getInputStream().read();
            if (echoed == -1) {
                throw new IOException("the server closed before echoing");
            }
            return echoed;
        } catch (IOException e) {
            throw Protocol.socketFailed("connections client", e);
        }
    }

    private static void close(ServerSocket listener) {
        try {
            listener.close();
        } catch (IOException e) {
            throw Protocol.socketFailed("close the listener", e);
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

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
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
